// Shared by the studio's pages (loaded before studio.js and replay.js): building the page from data.
// Data goes in as text only (textContent, attributes); never as HTML.

const $ = (id) => document.getElementById(id);

// An element with its properties ("class", "text", "on<event>" handlers, other attributes) and children.
function el(tag, props = {}, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(props)) {
    if (value === undefined || value === null || value === false) continue;
    if (key === "class") node.className = value;
    else if (key === "text") node.textContent = value;
    else if (key.startsWith("on")) node.addEventListener(key.slice(2), value);
    else node.setAttribute(key, value === true ? "" : String(value));
  }
  for (const child of children) {
    if (child !== null && child !== undefined && child !== false) node.append(child);
  }
  return node;
}
