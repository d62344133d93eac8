export { NewsListPage as default } from '../features/news/news-list-page.tsx';
