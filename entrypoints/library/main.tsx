import { render } from 'preact';
import { LibraryApp } from '../../components/library/LibraryApp.js';
import '../../components/shared/base.css';
import '../../components/shared/editors.css';
import '../../components/library/library.css';

render(<LibraryApp />, document.getElementById('app')!);
