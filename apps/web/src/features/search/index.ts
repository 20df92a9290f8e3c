// The search feature's public face: other features and the app import only from here.
export { SearchBar } from './components/SearchBar';
export { SearchProvider } from './components/SearchProvider';
export { useSearch } from './search-context';
export { countAdvancedFilters, searchFilters } from './lib/search-filters';
