export { LibraryPage as default } from '../features/library/library-page.tsx';
