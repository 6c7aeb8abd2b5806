// Words for what a hand does: a finger taps, a mouse clicks. Asked each time, since a
// laptop with a touch screen can change which one it uses.
export const touching = () => matchMedia('(pointer: coarse)').matches;
export const tapOrClick = () => (touching() ? 'tap' : 'click');
