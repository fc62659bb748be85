// The account pages (src/http/account-pages.ts): reads the link's token, takes it out of the address bar, and sends
// the page's form to POST /graphql as one of the operations the page carries. Says plainly how it went.
(function () {
  'use strict';
  const page = document.body.dataset.page;
  const operations = JSON.parse(document.getElementById('operations').textContent);
  const form = document.getElementById('account-form');
  const status = document.getElementById('status');
  const intro = document.getElementById('intro');
  const button = form.querySelector('button[type=submit]');

  // The token stays in this script only: not in the address bar, the history, or a bookmark of the page.
  const params = new window.URLSearchParams(window.location.search);
  const token = (params.get('token') || '').trim();
  if (params.has('token')) window.history.replaceState(null, '', window.location.pathname);

  const LINK_REFUSED = {
    reset: 'This link is invalid, expired or already used. Ask for a new password reset e-mail.',
    verify:
      'This link is invalid, expired or already used. If your address is not confirmed yet, ask for a new ' +
      'confirmation e-mail.',
    invitation: 'This invitation is invalid, expired or revoked. Ask the person who invited you for a new one.',
  };
  const DONE = {
    reset: 'Your password is set. You can now sign in',
    verify: 'Your e-mail address is confirmed. You can now sign in',
    invitation: 'Your account is ready. You can now sign in',
  };

  /** kind: 'problem', 'done', or '' while waiting. */
  function say(text, kind) {
    status.textContent = text;
    status.className = kind;
  }

  function field(name) {
    return form.elements[name];
  }

  function markInvalid(name) {
    for (const input of form.querySelectorAll('input')) input.removeAttribute('aria-invalid');
    const input = name && field(name);
    if (input && !input.closest('[hidden]')) {
      input.setAttribute('aria-invalid', 'true');
      input.focus();
    }
  }

  /** The company's required fields the invitation asks for, each with its input: added before the password. */
  const extraFields = [];
  const INPUT_TYPES = { number: 'number', email: 'email', date: 'date' };

  function addExtraField(def) {
    const id = 'extra-field-' + extraFields.length;
    const wrapper = document.createElement('div');
    wrapper.className = 'field';
    const label = document.createElement('label');
    label.htmlFor = id;
    label.textContent = def.name;
    const options = def.settings && Array.isArray(def.settings.options) ? def.settings.options.map(String) : null;
    const choices = def.type === 'boolean' ? ['yes', 'no'] : def.type === 'select' && options ? options : null;
    let input;
    if (choices) {
      input = document.createElement('select');
      for (const choice of [''].concat(choices)) {
        const option = document.createElement('option');
        option.value = choice;
        option.textContent = choice;
        input.appendChild(option);
      }
    } else {
      input = document.createElement('input');
      input.type = INPUT_TYPES[def.type] || 'text';
    }
    input.id = id;
    input.required = true;
    wrapper.append(label, input);
    form.insertBefore(wrapper, field('password').closest('.field'));
    extraFields.push({ name: def.name, type: def.type, input: input });
  }

  /** The values as acceptInvitation takes them: numbers and yes/no as such, blanks as none. */
  function extraValues() {
    return extraFields.map(function (f) {
      const raw = f.input.value.trim();
      let value = raw === '' ? null : raw;
      if (value !== null && f.type === 'number') value = Number(raw);
      if (value !== null && f.type === 'boolean') value = raw === 'yes';
      return { name: f.name, value: value };
    });
  }

  function sentence(text) {
    const trimmed = String(text || '').trim();
    return trimmed.charAt(0).toUpperCase() + trimmed.slice(1) + (/[.!?]$/.test(trimmed) ? '' : '.');
  }

  /** One GraphQL operation over POST /graphql: { data } or { problem, field } in plain words. */
  async function send(name, variables) {
    let response;
    try {
      response = await fetch('/graphql', {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'apollo-require-preflight': 'true' },
        body: JSON.stringify({ query: operations[name], operationName: name, variables: variables }),
        credentials: 'omit',
        cache: 'no-store',
        referrerPolicy: 'no-referrer',
      });
    } catch {
      return { problem: 'The service cannot be reached. Check your connection and try again.' };
    }
    // A response that is not JSON (a proxy's error page) is read as no response.
    const body = await response.json().catch(function () {
      return null;
    });
    const error = body && body.errors && body.errors[0];
    if (!error) {
      if (body && body.data) return { data: body.data };
      if (response.status === 429) return { problem: 'Too many requests from this address. Try again in a minute.' };
      return { problem: 'The service could not answer just now. Try again in a moment.' };
    }
    const extensions = error.extensions || {};
    const argument = extensions.argumentName;
    switch (extensions.code) {
      case 'NOT_FOUND':
        return { problem: LINK_REFUSED[page], fatal: true };
      case 'CONFLICT':
        return /already been accepted/.test(error.message)
          ? { problem: 'This invitation has already been accepted. You can sign in.', fatal: true }
          : { problem: sentence(error.message), fatal: true };
      case 'BAD_USER_INPUT':
        if (argument === 'password') {
          const rule = String(error.message).replace(/^password /, 'it ');
          const weak = /at most/.test(rule) ? 'This password is too long: ' : 'This password is too weak: ';
          return { problem: weak + rule + '.', field: 'password' };
        }
        return { problem: sentence(error.message), field: argument };
      case 'RATE_LIMITED':
        return { problem: sentence(error.message) };
      case 'FORBIDDEN':
        // A company that signs in with its own provider only: the message says where (no form helps here).
        return { problem: sentence(error.message), fatal: true };
      case 'SERVICE_UNAVAILABLE':
      case 'REQUEST_TIMEOUT':
      case 'INTERNAL_SERVER_ERROR':
        return { problem: 'The service could not answer just now. Try again in a moment.' };
      default:
        return { problem: sentence(error.message) };
    }
  }

  function checkPasswords() {
    const password = field('password');
    if (!password) return true;
    if (!password.value) {
      say('Enter the new password.', 'problem');
      markInvalid('password');
      return false;
    }
    if (password.value !== field('repeat').value) {
      say('The two passwords differ: type the same one twice.', 'problem');
      markInvalid('repeat');
      return false;
    }
    return true;
  }

  function variablesOf() {
    if (page === 'reset') return ['AccountPageResetPassword', { token: token, password: field('password').value }];
    if (page === 'verify') return ['AccountPageVerifyEmail', { token: token }];
    const variables = { jwt: token, name: field('name').value.trim(), password: field('password').value };
    if (!field('email').closest('[hidden]')) variables.email = field('email').value.trim();
    if (extraFields.length) variables.extraFields = extraValues();
    return ['AccountPageAcceptInvitation', variables];
  }

  function finished(result) {
    const user = result && result.user;
    const who = user ? ' as ' + user.email + ' in ' + user.company.name + '.' : '.';
    form.hidden = true;
    say(DONE[page] + who, 'done');
  }

  form.addEventListener('submit', async function (event) {
    event.preventDefault();
    if (button.disabled) return;
    if (page === 'invitation' && !field('name').value.trim()) {
      say('Enter your name.', 'problem');
      markInvalid('name');
      return;
    }
    if (page === 'invitation' && !field('email').closest('[hidden]') && !field('email').value.trim()) {
      say('Enter your e-mail address.', 'problem');
      markInvalid('email');
      return;
    }
    const unanswered = extraFields.find(function (f) {
      return !f.input.value.trim();
    });
    if (unanswered) {
      say('Enter your ' + unanswered.name + '.', 'problem');
      unanswered.input.focus();
      return;
    }
    if (!checkPasswords()) return;
    markInvalid(null);
    button.disabled = true;
    form.setAttribute('aria-busy', 'true');
    say('Sending…', '');
    const [name, variables] = variablesOf();
    const result = await send(name, variables);
    button.disabled = false;
    form.removeAttribute('aria-busy');
    if (result.data) {
      finished(Object.values(result.data)[0]);
      return;
    }
    say(result.problem, 'problem');
    if (result.fatal) form.hidden = true;
    else markInvalid(result.field);
  });

  /**
   * A company that signs in with its own identity provider only: nobody sets a password here, the provider
   * creates the account. The link is this gateway's single sign-on route.
   */
  function providerOnly(company) {
    const how = ', which signs in with its own identity provider: no password is set here. To join, ';
    intro.textContent = 'You are invited to ' + company.name + how;
    const link = document.createElement('a');
    link.href = '/auth/sso/start?company=' + encodeURIComponent(company.code) + '&provider=company';
    link.textContent = 'sign in with your company account';
    link.id = 'provider-sign-in';
    intro.append(link, '.');
    say('', '');
    link.focus();
  }

  async function start() {
    if (!token) {
      say('This link has no token. Open the link from your e-mail again, whole.', 'problem');
      return;
    }
    if (page === 'invitation') {
      say('Reading the invitation…', '');
      const result = await send('AccountPageInvitation', { jwt: token });
      if (!result.data) {
        say(result.problem, 'problem');
        return;
      }
      const invitation = result.data.invitationByJwt;
      if (invitation.company.loginStrategy === 1 && invitation.role !== 'manager') {
        providerOnly(invitation.company);
        return;
      }
      intro.textContent = 'You are invited to ' + invitation.company.name + '. Create your account to join the game.';
      if (invitation.name) field('name').value = invitation.name;
      // An invitation made without an e-mail asks for one; otherwise the account gets the invited address.
      if (!invitation.email) field('email').closest('.field').hidden = false;
      // The company's required fields that apply to the invitation's areas: acceptInvitation refuses without them.
      for (const def of invitation.requiredExtraFields || []) addExtraField(def);
      say('', '');
    }
    form.hidden = false;
    const first = form.querySelector('.field:not([hidden]) input');
    (first || button).focus();
  }

  start();
})();
