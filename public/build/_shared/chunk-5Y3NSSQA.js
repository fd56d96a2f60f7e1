var r=t=>({tries:`${t} ${t===1?"try":"tries"}`,minutes:30});export{r as a};
