// The page's entry module: the words of the page, the language button, and the
// router with its pages.
import { loadText, toggleLanguage } from './i18n.js';
import { route, startRouter } from './router.js';
import { gamePage } from './pages/game.js';
import { joinPage } from './pages/join.js';
import { lobbyPage } from './pages/lobby.js';
import { replayPage } from './pages/replay.js';
import { rulesPage } from './pages/rules.js';
import { learnPage } from './pages/learn.js';
import { puzzlesPage } from './pages/puzzles.js';

document.getElementById('lang').addEventListener('click', () => {
  toggleLanguage();
  route();
});
await loadText();
startRouter({ lobby: lobbyPage, game: gamePage, replay: replayPage, rules: rulesPage, join: joinPage, learn: learnPage, puzzles: puzzlesPage });
