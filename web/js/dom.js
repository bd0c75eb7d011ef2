// DOM helpers: build HTML and SVG elements from attributes and children, and
// show a short message (a toast).

const SVGNS = 'http://www.w3.org/2000/svg';

// Sets attributes (`on…` ones become listeners) and appends children; `skip`
// tells which attribute values mean "leave it out".
function build(e, attrs, kids, skip) {
  for (const [k, v] of Object.entries(attrs || {})) {
    if (skip(v)) continue;
    if (k.startsWith('on')) e.addEventListener(k.slice(2), v);
    else if (k === 'class' && !(e instanceof SVGElement)) e.className = v;
    else e.setAttribute(k, v === true ? '' : v);
  }
  for (const k of kids.flat()) {
    if (k === null || k === undefined || k === false) continue;
    e.append(k.nodeType ? k : document.createTextNode(String(k)));
  }
  return e;
}

/** An HTML element: el('a', {href: '#/'}, 'text', child, [more]). */
export function el(tag, attrs, ...kids) {
  return build(document.createElement(tag), attrs, kids, (v) => v === undefined || v === null || v === false);
}

/** An SVG element, like `el`. */
export function sv(tag, attrs, ...kids) {
  return build(document.createElementNS(SVGNS, tag), attrs, kids, (v) => v === undefined || v === null);
}

let toastTimer = null;
/**
 * Shows `msg` for four seconds at the bottom of the page (in red when `bad`),
 * with a link after it when `link` ({href, text}) is given (six seconds then,
 * time to follow it).
 */
export function toast(msg, bad, link) {
  const box = document.getElementById('toast');
  box.replaceChildren(el('span', { class: 'msg' }, msg));
  if (link) box.append(' ', el('a', { class: 'rule', href: link.href }, link.text));
  box.className = 'show' + (bad ? ' bad' : '');
  clearTimeout(toastTimer);
  toastTimer = setTimeout(() => { box.className = ''; }, link ? 6000 : 4000);
}

/** True when a key press is meant for a form field, not for the page. */
export function typingIn(ev) {
  return ['INPUT', 'TEXTAREA', 'SELECT'].includes(ev.target.tagName);
}
