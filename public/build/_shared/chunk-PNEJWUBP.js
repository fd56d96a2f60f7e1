var c="/build/_assets/wallet-RJ6BS3VO.css";export{c as a};
