import { render } from 'preact';
import { SavedCopyPage } from '../../components/library/SavedCopyPage.js';
import '../../components/shared/base.css';
import '../../components/library/saved-copy.css';

render(<SavedCopyPage />, document.getElementById('app')!);
