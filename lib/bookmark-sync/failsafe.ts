// The failsafe: a sync that would delete many of the mirrored bookmarks stops and asks first, so a
// broken profile, a wiped folder or a mass delete elsewhere cannot empty the other side.

/** More removals than this always ask. */
const FAILSAFE_MAX = 100;
/** A larger share of the mirrored bookmarks than this asks... */
const FAILSAFE_SHARE = 0.2;
/** ...once more than this many would go (deleting one bookmark of three is not a mass delete). */
const FAILSAFE_FLOOR = 3;

/** Whether removing `removals` of `mirrored` bookmarks (on one side) must be confirmed by the user. */
export function needsConfirmation(removals: number, mirrored: number): boolean {
  if (removals > FAILSAFE_MAX) return true;
  return removals > FAILSAFE_FLOOR && removals > mirrored * FAILSAFE_SHARE;
}
