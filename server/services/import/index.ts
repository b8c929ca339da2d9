export { convertImportFile } from './convert-import-file.js';
export { detectImportFormat } from './detect-format.js';
export { decodeImportText } from './decode-text.js';
export {
  ImportFormatError,
  type ConvertOptions,
  type ImportBookmark,
  type ImportCount,
  type ImportFolder,
  type ImportLimits,
  type ImportFormat,
  type ImportResult,
  type IsSavedCallback,
} from './types.js';
