// Nothing to do: the bench calls chrome.action.openPopup() in this worker.
self.addEventListener('install', () => {});
