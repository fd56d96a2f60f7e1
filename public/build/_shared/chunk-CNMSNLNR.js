import{b as r}from"/build/_shared/chunk-T36URGAI.js";var l=r((o,a)=>{a.exports={}});var t="/build/_assets/support-4YHUCHOJ.css";export{t as a,l as b};
