import { $, api, apiPaths, h, showError } from './console.js';
import { checked, numberOrNull, text } from './console-forms.js';
import { cell, numCell } from './console-tables.js';
import { vendorInstancesPage } from './vendor-instances.js';

/** Token usage of a month, by instance and model, when the service reports it. */
async function usage() {
  const month = $('month').value;
  try {
    const report = await api('GET', `/api/v2/llm/token-usage${month ? `?month=${encodeURIComponent(month)}` : ''}`);
    const rows = (report.summary ?? []).map((line) =>
      h(
        'tr',
        {},
        cell('Instance', line.instanceTitle ?? line.instanceId ?? ''),
        cell('Model', line.modelName ?? ''),
        numCell('Requests', line.requestCount),
        numCell('Input', line.inputTokens),
        numCell('Output', line.outputTokens),
        numCell('Total', line.totalTokens),
      ),
    );
    document.querySelector('#usage tbody').replaceChildren(...rows);
    $('usage-status').textContent = rows.length
      ? `${report.totalTokens ?? 0} tokens in ${report.totalRequests ?? 0} requests`
      : 'No tokens used in this month.';
  } catch (error) {
    showError(error);
  }
}

async function start() {
  await vendorInstancesPage({
    name: 'llm',
    table: 'llms',
    path: '/api/llm',
    noun: 'instance',
    empty: 'No LLM instances yet.',
    cells: (item) => [
      cell('Model', item.modelName ?? '—'),
      cell('Embeddings', item.embeddingModel ?? '—'),
      cell('API key', item.hasApiKey ? `…${item.apiKeyHint ?? ''}` : '—'),
    ],
    dialogTitle: (item) => (item ? `LLM instance ${item.title}` : 'New LLM instance'),
    defaults: {
      title: '',
      url: '',
      modelName: '',
      embeddingModel: '',
      embeddingBatchSize: 64,
      embeddingMaxChars: 200000,
      description: '',
      enabled: true,
    },
    cleared: { apiKey: '' },
    body(form) {
      const body = {
        title: text(form, 'title'),
        vendor: text(form, 'vendor'),
        url: text(form, 'url') || null,
        modelName: text(form, 'modelName') || null,
        embeddingModel: text(form, 'embeddingModel') || null,
        description: text(form, 'description'),
        enabled: checked(form, 'enabled'),
      };
      // An empty number keeps what the instance has (a new one: the default).
      for (const name of ['embeddingBatchSize', 'embeddingMaxChars']) {
        const value = numberOrNull(form, name);
        if (value !== null) body[name] = value;
      }
      // The key is write-only: sent only when typed, so an edit keeps the stored one.
      if (form.elements.namedItem('apiKey').value) body.apiKey = form.elements.namedItem('apiKey').value;
      return body;
    },
    saved: 'LLM instance saved.',
    deleteTitle: (item) => `Delete ${item.title}?`,
    deleteText: 'Sites and agents that use it can no longer chat.',
  });
  if ((await apiPaths()).has('/api/v2/llm/token-usage')) {
    $('month').value = new Date().toISOString().slice(0, 7);
    $('usage-card').hidden = false;
    $('month').addEventListener('change', usage);
    await usage();
  }
}

start();
