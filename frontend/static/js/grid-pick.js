// A tap on the small table (svg[data-grid-pick], drawn from the side's own rear edge) fills the inputs named
// by data-x and data-y; its y runs down the screen, so "up the table" is length minus the tapped y.
document.addEventListener("click", (event) => {
  const svg = event.target.closest("svg[data-grid-pick]");
  if (!svg) return;
  const pt = svg.createSVGPoint();
  pt.x = event.clientX;
  pt.y = event.clientY;
  const p = pt.matrixTransform(svg.getScreenCTM().inverse());
  const length = Number(svg.dataset.length);
  const x = Math.max(0, Math.min(Number(svg.dataset.width), Math.round(p.x)));
  const up = Math.max(0, Math.min(length, Math.round(length - p.y)));
  document.querySelector(svg.dataset.x).value = String(x);
  document.querySelector(svg.dataset.y).value = String(up);
  const mark = svg.querySelector(".grid-mark");
  if (mark) { mark.setAttribute("cx", String(x)); mark.setAttribute("cy", String(length - up)); }
});
