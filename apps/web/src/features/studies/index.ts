// The studies feature's public face: other features and the app import only from here.
export { StudyWorkspace } from './components/StudyWorkspace';
