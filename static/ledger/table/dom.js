// Small DOM helpers shared by the table page's modules.
export const $ = (id) => document.getElementById(id);

export function el(tag, attrs, ...children) {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (k === "on") for (const [ev, fn] of Object.entries(v)) node.addEventListener(ev, fn);
    else if (k === "class") node.className = v;
    else if (v !== false && v !== null && v !== undefined) node.setAttribute(k, v === true ? "" : v);
  }
  for (const c of children.flat()) if (c !== null && c !== undefined && c !== false) node.append(c);
  return node;
}

export const union = (a, b) => [...a, ...b.filter(x => !a.includes(x))];

export function newKey() {
  const bytes = new Uint8Array(16);
  crypto.getRandomValues(bytes);  // crypto.randomUUID needs https; phones on a LAN use plain http
  return Array.from(bytes, b => b.toString(16).padStart(2, "0")).join("");
}
