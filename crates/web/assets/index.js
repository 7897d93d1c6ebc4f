import { api, nav, el } from '/static/common.js';
nav();
const list = document.getElementById('games');
for (const g of await api('/games')) list.append(el('li', {}, el('b', {}, g.name), ' (' + g.kind + '): ', g.summary));
