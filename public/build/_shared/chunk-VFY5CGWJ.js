var e="/build/_assets/console-admin-A2X7CDOX.css";export{e as a};
