// The studies feature's public face: other features and the app import only from here.
export { StudyWorkspace } from './components/StudyWorkspace';
export { MultiSelectPanel } from './components/MultiSelectPanel';
export { StudyPagination } from './components/StudyPagination';
export { studyCountQuery, studyListQuery, type StudyListParams } from './api/list-studies';
