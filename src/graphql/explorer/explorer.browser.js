// The /graphiql page: GraphiQL over POST /graphql (subscriptions over WebSocket at the same path), with the token
// and tenant headers taken from the form above it. Everything it loads is served by the gateway itself.
(function () {
  'use strict';
  const form = document.getElementById('headers-form');
  const status = document.getElementById('status');
  const endpoint = window.location.origin + '/graphql';
  const LOGIN =
    'mutation Login($email: String!, $password: String!) { login(email: $email, password: $password) { token } }';

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
})();
