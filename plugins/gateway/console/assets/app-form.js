import { lines } from './console.js';

/** The app's JSON from the details form (New app and Details share its fields). */
export function readAppForm(form) {
  const value = (name) => form.elements.namedItem(name).value;
  return {
    name: value('name').trim(),
    description: value('description').trim(),
    callbackUrls: lines(value('callbackUrls')),
  };
}

export function fillAppForm(form, app) {
  form.elements.namedItem('name').value = app.name ?? '';
  form.elements.namedItem('description').value = app.description ?? '';
  form.elements.namedItem('callbackUrls').value = (app.callbackUrls ?? []).join('\n');
}
