// The webhooks that register repositories: an installation created with its repositories,
// repositories added to an installation, and a repository created under one.
import { Type } from '@sinclair/typebox';
import { Owner, RepositoryName } from '../identifiers.ts';
import { IGNORED, type HostingEvent, type RepositoryName as Name } from './hosting-event.ts';
import { actionOf, payloadCheck } from './payload-validation.ts';

// "owner/name"; when given it names the owner (an installation may span several accounts).
const FullName = Type.String({ pattern: '^[a-zA-Z0-9\\-]{1,40}/[\\w\\-\\.]{1,100}$' });
const ListedRepository = Type.Object({ name: RepositoryName, full_name: Type.Optional(FullName) });
const Account = Type.Object({ login: Owner });

const checkInstallation = payloadCheck(
  Type.Object({ installation: Type.Object({ account: Account }), repositories: Type.Optional(Type.Array(ListedRepository)) }),
);
const checkAdded = payloadCheck(
  Type.Object({ installation: Type.Object({ account: Account }), repositories_added: Type.Array(ListedRepository) }),
);
const checkRepository = payloadCheck(Type.Object({ repository: Type.Object({ name: RepositoryName, owner: Account }) }));

/** The registering action of each event; every other action of these events is ignored. */
const REGISTERING_ACTION = new Map([
  ['installation', 'created'],
  ['installation_repositories', 'added'],
  ['repository', 'created'],
]);

export function parseRegistrationEvent(event: string, payload: unknown): HostingEvent {
  const action = REGISTERING_ACTION.get(event);
  if (action === undefined || actionOf(payload) !== action) return IGNORED;
  return { kind: 'register', repositories: repositoriesOf(event, payload) };
}

function repositoriesOf(event: string, payload: unknown): Name[] {
  if (event === 'repository') {
    const { repository } = checkRepository(payload);
    return [{ owner: repository.owner.login, name: repository.name }];
  }
  if (event === 'installation') {
    const { installation, repositories } = checkInstallation(payload);
    return (repositories ?? []).map((listed) => nameOf(listed, installation.account.login));
  }
  const { installation, repositories_added: added } = checkAdded(payload);
  return added.map((listed) => nameOf(listed, installation.account.login));
}

function nameOf(listed: { name: string; full_name?: string }, accountLogin: string): Name {
  return { owner: listed.full_name?.split('/')[0] ?? accountLogin, name: listed.name };
}
