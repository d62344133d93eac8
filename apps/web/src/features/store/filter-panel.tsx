import type { Facets } from '@keystore/contract';
import { FILTER_NAMES, FILTERS, type FilterName } from '@keystore/contract/constants';
import { FilterGroup, filterOptions } from './filter-group.tsx';
import type { StoreFilters } from './url-state.ts';

const FILTER_LABELS: Record<FilterName, string> = {
  category: 'Category',
  platform: 'Platform',
  genre: 'Genre',
  region: 'Region',
  language: 'Language',
};

interface FilterPanelProps {
  filters: StoreFilters;
  /** Counts per value from the API, each counted with the other filters applied. */
  facets: Facets | undefined;
  onChange: (filters: StoreFilters) => void;
}

/** The five filters of the store (Category, Platform, Genre, Region, Language), used by the sidebar and the drawer. */
export function FilterPanel({ filters, facets, onChange }: FilterPanelProps) {
  return (
    <>
      {FILTER_NAMES.map((name) => (
        <FilterGroup
          key={name}
          label={FILTER_LABELS[name]}
          options={filterOptions(facets?.[name], FILTERS[name], filters[name])}
          selected={filters[name]}
          onChange={(values) => onChange({ ...filters, [name]: values })}
        />
      ))}
    </>
  );
}
