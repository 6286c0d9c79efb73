export { escapeHtml } from './escape-html.js';
export { formatScore, renderTable, type TableColumn } from './text-table.js';
