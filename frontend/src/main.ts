// Entry point: the global stylesheet and the <ss-app> shell, which pulls in every view.
import './styles.css';
import './app';
