// Marks the first frame after the page ran its (empty) script: the floor for "interactive".
requestAnimationFrame(() => setTimeout(() => performance.mark('baseline:interactive'), 0));
