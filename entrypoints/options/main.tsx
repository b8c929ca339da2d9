import { render } from 'preact';
import { OptionsApp } from '../../components/options/OptionsApp.js';
import '../../components/shared/base.css';
import '../../components/options/options.css';

render(<OptionsApp />, document.getElementById('app')!);
