import { lazy, Suspense, type ComponentType } from 'react';
import { Route, Routes } from 'react-router';
import { PAGE_KEYS, PAGE_PATHS, pageModule, type PageKey } from '@keystore/contract/page-paths';
import { Layout } from './layout.tsx';
import { NotFoundPage } from './not-found-page.tsx';

/**
 * Every page's module, loaded on demand (route-level code splitting). A page is `src/pages/<key>.tsx`
 * for each key of the contract's page table, so the build manifest names its chunk by that key and
 * the server preloads it with the HTML (apps/server/src/modules/seo).
 */
const modules = import.meta.glob<{ default: ComponentType }>('../pages/*.tsx');

const components = new Map<PageKey, ComponentType>();

/**
 * The lazy component of a page of the table, one per page wherever it is shown (/login shows the
 * home page's); a page without a module fails here, and in its test.
 */
export function pageComponent(key: PageKey): ComponentType {
  const known = components.get(key);
  if (known) return known;
  const load = modules[`../${pageModule(key).replace(/^src\//, '')}`];
  if (!load) throw new Error(`The page "${key}" has no module at ${pageModule(key)}`);
  const component = lazy(load);
  components.set(key, component);
  return component;
}

const pages = PAGE_KEYS.map((key) => ({ key, path: PAGE_PATHS[key], Page: pageComponent(key) }));

/**
 * Routes of SPEC §2, one per entry of the contract's page table. Declarative routes rather than a
 * data router: the pages fetch their own data through TanStack Query, and leaving the data router out
 * of the bundle saves 18.5 KB gzip of startup JavaScript (docs/decisions/010). The boundary sits above
 * the frame, so the first paint waits for the page's chunk (preloaded with the HTML) instead of
 * showing the frame alone and shifting the footer; later navigations are transitions, which keep the
 * current page until the next one is ready.
 */
export function AppRoutes() {
  return (
    <Suspense fallback={null}>
      <Routes>
        <Route element={<Layout />}>
          {pages.map(({ key, path, Page }) => (
            <Route key={key} path={path} element={<Page />} />
          ))}
          <Route path="*" element={<NotFoundPage />} />
        </Route>
      </Routes>
    </Suspense>
  );
}
