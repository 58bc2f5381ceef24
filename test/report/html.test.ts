import { describe, expect, it } from 'vitest';
import { escapeHtml, html, htmlPage, rawHtml } from '../../lib/report/html.js';

describe('the html template', () => {
  it('escapes every interpolated value, in text and in attributes', () => {
    const value = `"><img src=x onerror=alert(1)>&'`;
    expect(html`<td title="${value}">${value}</td>`.text).toBe('<td title="&quot;&gt;&lt;img src=x onerror=alert(1)&gt;&amp;&#39;">&quot;&gt;&lt;img src=x onerror=alert(1)&gt;&amp;&#39;</td>');
  });

  it('keeps markup made by the template, joins lists and drops false, null and undefined', () => {
    const items = ['<a>', 'b'].map((item) => html`<li>${item}</li>`);
    expect(html`<ul>${items}${false}${null}${undefined}</ul>`.text).toBe('<ul><li>&lt;a&gt;</li><li>b</li></ul>');
    expect(html`${0} ${true}`.text).toBe('0 true');
  });

  it('lets only rawHtml through unescaped', () => {
    expect(html`${rawHtml('<b>x</b>')}`.text).toBe('<b>x</b>');
    expect(escapeHtml('<b>x</b>')).toBe('&lt;b&gt;x&lt;/b&gt;');
  });

  it('makes a whole page with no script and the title escaped', () => {
    const page = htmlPage('</title><script>x</script>', html`<p>hi</p>`);
    expect(page).toMatch(/^<!doctype html>\n<html lang="en">/);
    expect(page).toContain('<title>&lt;/title&gt;&lt;script&gt;x&lt;/script&gt;</title>');
    expect(page).not.toContain('<script');
  });
});

describe('bidirectional controls', () => {
  it('are shown as their escapes, so a value cannot read as another', () => {
    expect(html`<td title="${'\u202E92-11-6202=td'}">${'\u202Egnp.exe\u202C'}</td>`.text).toBe('<td title="\\u202E92-11-6202=td">\\u202Egnp.exe\\u202C</td>');
    expect(escapeHtml('\u2066a\u2069\u200F\u061C')).toBe('\\u2066a\\u2069\\u200F\\u061C');
    expect(escapeHtml('שלום عربى')).toBe('שלום عربى');
  });
});
