/**
 * User statements: CREATE/DROP USER, SET PASSWORD, GRANT, REVOKE. Each export parses what follows
 * its dispatch words. Admin privilege is `ALL [PRIVILEGES]` without `ON db`.
 */
import P from 'parsimmon';
import type { Parser } from 'parsimmon';
import type { Privilege, Statement } from '../ast/statements.js';
import { clause, expect, fatal, ident, keyword, opt, stringLit, sym } from './lexeme.js';

const name = expect(ident, 'identifier');
const password = expect(stringLit, 'string');

export const createUser: Parser<Statement> = P.seqMap(
  name,
  expect(keyword('with'), 'WITH').then(expect(keyword('password'), 'PASSWORD')).then(password),
  clause(keyword('with'), expect(keyword('all'), 'ALL').then(expect(keyword('privileges'), 'PRIVILEGES'))),
  (user, pw, admin) => ({ kind: 'CreateUser', name: user, password: pw, admin: admin !== null }),
);

export const dropUser: Parser<Statement> = name.map((user) => ({ kind: 'DropUser', name: user }));

/** After SET PASSWORD FOR. */
export const setPassword: Parser<Statement> = P.seqMap(name, expect(sym('='), '=').then(password), (user, pw) => ({
  kind: 'SetPassword', name: user, password: pw,
}));

const privilege: Parser<Privilege> = P.alt<Privilege>(
  keyword('read').map(() => 'READ'),
  keyword('write').map(() => 'WRITE'),
  keyword('all').skip(opt(keyword('privileges'))).map(() => 'ALL'),
  fatal('READ', 'WRITE', 'ALL [PRIVILEGES]'),
);

/** GRANT (`to` = 'to') or REVOKE (`to` = 'from'): `priv ON db TO|FROM user` or `ALL [PRIVILEGES] TO|FROM user`. */
function privilegeStatement(kind: 'Grant' | 'Revoke', to: 'to' | 'from'): Parser<Statement> {
  const TO = to.toUpperCase();
  return privilege.chain((priv) =>
    P.alt<Statement>(
      keyword('on').then(P.seqMap(name, expect(keyword(to), TO).then(name), (database, user) => ({ kind, privilege: priv, database, user }))),
      priv === 'ALL' ? keyword(to).then(name).map((user) => ({ kind, privilege: priv, database: null, user })) : P.fail(TO),
      priv === 'ALL' ? fatal('ON', TO) : fatal('ON'),
    ),
  );
}

export const grant = privilegeStatement('Grant', 'to');
export const revoke = privilegeStatement('Revoke', 'from');
