export { GamePage as default } from '../features/game/game-page.tsx';
