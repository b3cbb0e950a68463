import type { ExtractedContent } from '@vela/extraction';
import { definePlugin, type OutboundGuard } from 'vela/plugin';
import { type OcrConfig, OcrService } from './recognition/ocr-service.js';
import type { OcrTaskInput } from './recognition/ocr-task.js';
import { mountOcrRoutes } from './routes/ocr.js';

type OcrPluginConfig = OcrConfig & { allowHosts: string[] };

/** What it resolves, as plugin.json lists it (the loader checks they match): types ctx.resolve to these names. */
const consumes = ['outbound', 'workers'] as const;

export default definePlugin<OcrPluginConfig, typeof consumes>({
  consumes,
  register(ctx) {
    // OCR by URL reaches the hosts the operator allows every feature, plus its own list: none of this runtime's
    // services unless configured (the integration proxy's self:connector is not OCR's).
    let guard: OutboundGuard | undefined;
    const outbound = () => (guard ??= ctx.resolve('outbound').forFeature(ctx.config.allowHosts));
    const task = ctx.task<OcrTaskInput, ExtractedContent>(new URL('./recognition/ocr-task.ts', import.meta.url));
    const ocr = new OcrService(task, ctx.config, outbound, () => ctx.resolve('workers').stats());
    ctx.routes((router) => mountOcrRoutes(router, ocr));
  },
});
