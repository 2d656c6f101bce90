/* cg-capture.js: records the visual features of every element of a
 * rendered page in the DOM itself, then returns the decorated DOM.
 *
 * This file is the BODY of an async function, not a script: the renderer
 * runs it with webkit_web_view_call_async_javascript_function(), which
 * binds the arguments quietMs, settleMaxMs and maxElements as variables,
 * in an isolated script world so that the page's own scripts can neither
 * see nor tamper with it. The render benchmark wraps the same text in
 * "(async (quietMs, settleMaxMs, maxElements) => { … })(…)" to run it in
 * Chromium, so both engines run exactly this code.
 *
 * Every element gets these attributes (data-cg-* so that they never clash
 * with the page's own width, height or style attributes, which ClustVX's
 * bare names would overwrite):
 *
 *   data-cg-xpath       the element's canonical DOM path (see cg-renderer.h)
 *   data-cg-left, data-cg-top, data-cg-width, data-cg-height
 *                       the border box in CSS pixels, page coordinates
 *   data-cg-visible     "1" or "0"
 *   data-cg-fontdata    "family; rgb(r, g, b); size; style; weight; decoration"
 *   data-cg-background  the computed background colour
 *   data-cg-display     the computed display
 *
 * Copyright 2026 The Cartograph authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
'use strict';

const started = performance.now ();

/* Network and DOM quiet: no new resource timing entry and no change to the
 * tree for quietMs, bounded by settleMaxMs. Resource entries are added when
 * a load ends, so a request still open is not seen; the bound makes that
 * harmless. Attribute changes are not counted, because carousels and
 * clocks change them for ever. */
let changes = 0;
const observer = new MutationObserver ((records) => { changes += records.length; });
observer.observe (document, { subtree: true, childList: true, characterData: true });
const state = () => performance.getEntriesByType ('resource').length + ':' + changes;
const sleep = (ms) => new Promise ((resolve) => setTimeout (resolve, ms));
let last = state ();
let lastChange = performance.now ();
let settled = false;
while (performance.now () - started < settleMaxMs)
  {
    await sleep (Math.min (100, quietMs));
    const now = state ();
    if (now !== last)
      {
        last = now;
        lastChange = performance.now ();
      }
    else if (performance.now () - lastChange >= quietMs)
      {
        settled = true;
        break;
      }
  }
observer.disconnect ();

/* Web fonts change the metrics of everything they apply to. */
if (document.fonts && document.fonts.status !== 'loaded')
  {
    const left = Math.max (0, settleMaxMs - (performance.now () - started));
    await Promise.race ([document.fonts.ready, sleep (left)]);
  }

const round = (value) => String (Math.round (value * 100) / 100);
const scrollX = window.scrollX;
const scrollY = window.scrollY;

const isTable = (element) => element.localName.toLowerCase () === 'table';
const isTbody = (element) => element.localName.toLowerCase () === 'tbody';

/* The paths of the children of element, whose own path is parentPath.
 * A table's tbody wrappers are dissolved, because the HTML parser of
 * browsers inserts them and libxml2's does not (see cg-renderer.h): a
 * tbody directly under a table gets no path, and the table numbers the
 * rows of its tbodies together with its own children. The rows' paths are
 * kept in dissolvedPaths until their tbody is visited. */
const dissolvedPaths = new Map ();
const childPaths = (element, parentPath) => {
  const out = [];
  const seen = new Map ();
  const number = (child) => {
    const name = child.localName.toLowerCase ();
    const index = (seen.get (name) || 0) + 1;
    seen.set (name, index);
    return parentPath + '/' + name + '[' + index + ']';
  };
  for (let child = element.firstElementChild; child !== null; child = child.nextElementSibling)
    {
      if (isTable (element) && isTbody (child))
        {
          for (let row = child.firstElementChild; row !== null; row = row.nextElementSibling)
            dissolvedPaths.set (row, number (row));
          out.push ({ element: child, path: null });
        }
      else if (parentPath === null)
        out.push ({ element: child, path: dissolvedPaths.get (child) || null });
      else
        out.push ({ element: child, path: number (child) });
    }
  return out;
};

let count = 0;
let visibleCount = 0;
let truncated = false;
const root = document.documentElement;
/* Depth-first, iterative: pages nest deeper than the JS stack allows. */
const stack = [];
if (root !== null)
  stack.push ({ element: root, path: '/' + root.localName.toLowerCase () + '[1]', opacity: 1 });

while (stack.length > 0)
  {
    const item = stack.pop ();
    const element = item.element;

    if (count >= maxElements)
      {
        truncated = true;
        break;
      }
    count++;

    const style = getComputedStyle (element);
    const rect = element.getBoundingClientRect ();
    const opacity = item.opacity * (parseFloat (style.opacity) || 0);
    const visible = style.display !== 'none' &&
                    style.visibility === 'visible' &&
                    opacity > 0 &&
                    rect.width > 0 && rect.height > 0 &&
                    rect.right + scrollX > 0 && rect.bottom + scrollY > 0;

    if (item.path !== null)
      element.setAttribute ('data-cg-xpath', item.path);
    element.setAttribute ('data-cg-left', round (rect.left + scrollX));
    element.setAttribute ('data-cg-top', round (rect.top + scrollY));
    element.setAttribute ('data-cg-width', round (rect.width));
    element.setAttribute ('data-cg-height', round (rect.height));
    element.setAttribute ('data-cg-visible', visible ? '1' : '0');
    element.setAttribute ('data-cg-fontdata',
                          [style.fontFamily, style.color, style.fontSize, style.fontStyle,
                           style.fontWeight, style.textDecorationLine].join ('; '));
    element.setAttribute ('data-cg-background', style.backgroundColor);
    element.setAttribute ('data-cg-display', style.display);
    if (visible)
      visibleCount++;

    /* Pushed in reverse so that elements are visited in document order. */
    const children = childPaths (element, item.path);
    for (let i = children.length - 1; i >= 0; i--)
      stack.push ({ element: children[i].element, path: children[i].path, opacity: opacity });
  }

let doctype = '';
if (document.doctype)
  {
    const d = document.doctype;
    doctype = '<!DOCTYPE ' + d.name;
    if (d.publicId)
      doctype += ' PUBLIC "' + d.publicId + '"';
    if (d.systemId)
      doctype += (d.publicId ? '' : ' SYSTEM') + ' "' + d.systemId + '"';
    doctype += '>\n';
  }

const scrolling = document.scrollingElement || root;
return {
  html: root !== null ? doctype + root.outerHTML : '',
  title: document.title || '',
  url: location.href,
  elements: count,
  visible: visibleCount,
  truncated: truncated,
  settled: settled,
  width: scrolling !== null ? scrolling.scrollWidth : 0,
  height: scrolling !== null ? scrolling.scrollHeight : 0,
  waited: Math.round (performance.now () - started),
};
