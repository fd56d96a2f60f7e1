var o={open:"Waiting for our answer",answered:"Answered",closed:"Closed"},s={open:"Waiting for us",answered:"Answered",closed:"Closed"};export{o as a,s as b};
