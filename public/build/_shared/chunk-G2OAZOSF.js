import{b as t}from"/build/_shared/chunk-T36URGAI.js";var l=t((i,e)=>{e.exports={}});var c="/build/_assets/auth-HT4MP6GO.css";export{c as a,l as b};
