export { loader, default } from './products';
