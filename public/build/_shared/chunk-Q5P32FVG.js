var r="/build/_assets/orders-2FW2BLS2.css";export{r as a};
