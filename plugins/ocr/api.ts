// The ocr plugin's published contract: types only. ocr provides no service and declares no hook; it consumes
// `outbound` and `workers`. What other code builds on is its HTTP API (POST /api/ocr/file and /api/ocr/url on
// the search service), whose answer is typed here.

export type { FileAttributes } from './recognition/ocr-service.js';
