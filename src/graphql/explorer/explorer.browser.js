// The /graphiql page: GraphiQL over POST /graphql (subscriptions over WebSocket at the same path), with the token
// and tenant headers taken from the form above it. Everything it loads is served by the gateway itself. The form
// offers the single sign-on providers of the company in x-app-path (signInMethods); a sign-in started here comes
// back to this page with ?code=, which it exchanges for the token (exchangeLoginCode) and removes from the address.
(function () {
  'use strict';
  const form = document.getElementById('headers-form');
  const status = document.getElementById('status');
  const endpoint = window.location.origin + '/graphql';
  const LOGIN =
    'mutation Login($email: String!, $password: String!) { login(email: $email, password: $password) { token } }';
  const METHODS =
    'query SignInMethods($company: String!, $redirect: String) { signInMethods(company: $company, ' +
    'redirect: $redirect) { password providers { provider startUrl } } }';
  const EXCHANGE =
    'mutation ExchangeLoginCode($code: String!) { exchangeLoginCode(code: $code) ' +
    '{ token user { company { appPath } } } }';
  const PROVIDER_NAMES = { google: 'Google', company: "the company's provider" };

  function formHeaders() {
    const headers = {};
    const token = form.elements.token.value.trim();
    const appPath = form.elements.appPath.value.trim();
    const company = form.elements.company.value.trim();
    if (token) headers.authorization = 'Bearer ' + token;
    if (appPath) headers['x-app-path'] = appPath;
    if (company) headers['x-app-company'] = company;
    return headers;
  }

  // Subscriptions authenticate with connectionParams (the same names as the HTTP headers); lazy, so a connection
  // opens with the headers of the moment a subscription starts.
  const wsClient = window.graphqlWs.createClient({
    url: endpoint.replace(/^http/, 'ws'),
    lazy: true,
    connectionParams: formHeaders,
  });
  const fetcher = window.GraphiQL.createFetcher({ url: endpoint, wsClient: wsClient });
  const root = window.ReactDOM.createRoot(document.getElementById('graphiql'));

  function render() {
    root.render(
      window.React.createElement(window.GraphiQL, {
        fetcher: fetcher,
        headers: JSON.stringify(formHeaders(), null, 2),
        defaultQuery: '{\n  me {\n    name\n    company {\n      name\n    }\n  }\n}\n',
        defaultEditorToolsVisibility: 'headers',
        // The token is the user's secret: not written to localStorage.
        shouldPersistHeaders: false,
      }),
    );
  }

  form.addEventListener('submit', function (event) {
    event.preventDefault();
    status.textContent = '';
    render();
  });

  /** A public operation, with the tenant headers of the form but never its token. */
  async function publicCall(query, variables) {
    const headers = formHeaders();
    delete headers.authorization;
    headers['content-type'] = 'application/json';
    const response = await fetch(endpoint, {
      method: 'POST',
      headers: headers,
      body: JSON.stringify({ query: query, variables: variables }),
    });
    return response.json();
  }

  // The providers of the company in x-app-path, as buttons to their start addresses (back to this page).
  const sso = document.getElementById('sso');
  const passwordLogin = document.querySelector('#headers-form .login');
  async function showSignInMethods() {
    const company = form.elements.appPath.value.trim();
    sso.replaceChildren();
    passwordLogin.hidden = false;
    if (!company) return;
    try {
      const body = await publicCall(METHODS, { company: company, redirect: window.location.pathname });
      const methods = body.data && body.data.signInMethods;
      if (!methods || form.elements.appPath.value.trim() !== company) return;
      passwordLogin.hidden = !methods.password;
      for (const p of methods.providers) {
        const button = document.createElement('button');
        button.type = 'button';
        button.dataset.provider = p.provider;
        button.textContent = 'Sign in with ' + (PROVIDER_NAMES[p.provider] || p.provider);
        button.addEventListener('click', function () {
          window.location.assign(p.startUrl);
        });
        sso.appendChild(button);
      }
    } catch (error) {
      status.textContent = 'sign-in methods unavailable: ' + error.message;
    }
  }
  form.elements.appPath.addEventListener('change', showSignInMethods);

  // Back from a sign-in: the code leaves the address bar at once (it is single-use, but must not linger in
  // history), then becomes the token, kept in this page only.
  async function finishSignIn() {
    const url = new window.URL(window.location.href);
    const code = url.searchParams.get('code');
    const error = url.searchParams.get('error');
    if (!code && !error) return;
    url.searchParams.delete('code');
    url.searchParams.delete('error');
    window.history.replaceState(null, '', url.pathname + url.search + url.hash);
    if (error) {
      status.textContent = 'sign-in refused: ' + error;
      return;
    }
    status.textContent = 'signing in…';
    try {
      const body = await publicCall(EXCHANGE, { code: code });
      const payload = body.data && body.data.exchangeLoginCode;
      if (!payload) {
        status.textContent = 'sign-in refused: ' + (body.errors ? body.errors[0].message : 'no token');
        return;
      }
      form.elements.token.value = payload.token;
      const appPath = payload.user.company && payload.user.company.appPath;
      if (appPath) form.elements.appPath.value = appPath;
      status.textContent = 'signed in: the token is in the headers';
      render();
      showSignInMethods();
    } catch (err) {
      status.textContent = 'sign-in failed: ' + err.message;
    }
  }

  document.getElementById('login').addEventListener('click', async function () {
    status.textContent = 'logging in…';
    const headers = formHeaders();
    delete headers.authorization;
    headers['content-type'] = 'application/json';
    try {
      const response = await fetch(endpoint, {
        method: 'POST',
        headers: headers,
        body: JSON.stringify({
          query: LOGIN,
          variables: { email: form.elements.email.value, password: form.elements.password.value },
        }),
      });
      const body = await response.json();
      const token = body.data && body.data.login && body.data.login.token;
      if (!token) {
        status.textContent = 'login refused: ' + (body.errors ? body.errors[0].message : 'HTTP ' + response.status);
        return;
      }
      form.elements.token.value = token;
      form.elements.password.value = '';
      status.textContent = 'logged in: the token is in the headers';
      render();
    } catch (error) {
      status.textContent = 'login failed: ' + error.message;
    }
  });

  render();
  // With a code to exchange, the methods are shown once the company of the token is known.
  const exchanging = new window.URL(window.location.href).searchParams.has('code');
  finishSignIn();
  if (!exchanging) showSignInMethods();
})();
