// What every part of the playground shares: the JSON API, numbers as text, small DOM helpers.

export const $ = (id) => document.getElementById(id);

// POST body (or GET when there is none) to the service; a problem answer becomes an Error whose
// message is the problem's one line with its place and hint.
export async function api(path, body) {
  const init = body === undefined ? {} : {
    method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) };
  const response = await fetch(path, init);
  const data = await response.json();
  if (!response.ok) {
    const where = data.line ? ` (line ${data.line}, column ${data.column})` : data.column ? ` (column ${data.column})` : "";
    throw new Error(`${data.code}: ${data.detail || data.message}${where}${data.hint ? "\nhint: " + data.hint : ""}`);
  }
  return data;
}

export function percent(p) {
  if (p === 0) return "0%";
  if (p < 0.0001) return "~" + p.toExponential(1);
  return (100 * p).toFixed(p < 0.01 ? 3 : 2) + "%";
}

// el("p", {className: "muted"}, "text", child, ...): an element with properties and children.
export function el(tag, props, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(props || {})) {
    if (key === "dataset") Object.assign(node.dataset, value);
    else if (key.startsWith("aria-") || key === "role" || key === "for") node.setAttribute(key, value);
    else node[key] = value;
  }
  for (const child of children) {
    if (child !== null && child !== undefined && child !== false) node.append(child);
  }
  return node;
}

export function button(text, onClick, className) {
  const b = el("button", { type: "button", textContent: text });
  if (className) b.className = className;
  b.addEventListener("click", onClick);
  return b;
}

let uid = 0;
export function uniqueId(prefix) {
  uid += 1;
  return `${prefix}-${uid}`;
}
