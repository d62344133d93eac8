export { NewsDetailPage as default } from '../features/news/news-detail-page.tsx';
