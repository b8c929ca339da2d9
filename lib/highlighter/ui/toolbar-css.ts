// Styles of the in-page toolbar and toast (inside the shadow root of page-ui.ts only; the strip's are there).
export const TOOLBAR_CSS = `
.bar { position: fixed; display: flex; gap: 4px; align-items: center; padding: 4px 6px; background: #1f2328; color: #fff;
  border-radius: 8px; box-shadow: 0 2px 10px rgba(0,0,0,.3); font: 13px/1.2 system-ui, sans-serif; max-width: 360px; flex-wrap: wrap; }
.bar[hidden], .toast[hidden] { display: none; }
.swatch { width: 20px; height: 20px; border-radius: 50%; border: 2px solid rgba(255,255,255,.6); padding: 0; cursor: pointer; }
.swatch[aria-pressed="true"] { border-color: #fff; box-shadow: 0 0 0 2px #4c9aff; }
.btn { background: transparent; color: #fff; border: 0; padding: 3px 6px; border-radius: 4px; cursor: pointer; font: inherit; }
.btn:hover, .btn:focus-visible, .swatch:focus-visible { background: rgba(255,255,255,.15); outline: 2px solid #4c9aff; }
.toast { position: fixed; left: 50%; bottom: 24px; transform: translateX(-50%); display: flex; gap: 12px; align-items: center;
  padding: 8px 12px; background: #1f2328; color: #fff; border-radius: 8px; font: 13px/1.2 system-ui, sans-serif;
  box-shadow: 0 2px 10px rgba(0,0,0,.3); }
.undo { font-weight: 600; color: #8cc4ff; }
`;
