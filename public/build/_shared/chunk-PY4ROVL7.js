var o="/build/_assets/console-payouts-YG26XPKB.css";export{o as a};
