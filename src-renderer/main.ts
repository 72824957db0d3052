import { mount } from 'svelte';
import App from './App.svelte';
import { createApi } from './lib/api/api.ts';
import { sessionContext } from './lib/context.ts';
import { Session } from './lib/state/session.svelte.ts';
import './app.css';

const session = new Session(createApi());
void session.start();
mount(App, { target: document.getElementById('app')!, context: sessionContext(session) });
