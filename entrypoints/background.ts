// Placeholder background; replaced by the extension work (issue 4).
export default defineBackground(() => {});
