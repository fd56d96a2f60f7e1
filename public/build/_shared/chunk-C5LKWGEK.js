var e="/build/_assets/console-E7WPIRSX.css";export{e as a};
