// Route guards: which credentials an endpoint accepts and what rights they need (DESIGN.md §3).
// Identification runs on request, before validation, so a caller without a credential learns
// nothing about the input. Rights run before the body is parsed, so a caller without them cannot
// make the service parse a body up to its limit; but when the owner or repository in the path is
// not a valid name, the 422 naming it comes first and rights run after validation.
import { Type } from '@sinclair/typebox';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { Owner, RepositoryName } from '../../domain/identifiers.ts';
import { ApiError } from '../../errors.ts';
import { compileParameterValidator } from '../../validation/validators.ts';
import { bearerToken, identify, type CredentialDeps, type CredentialKind, type Principal } from './principal.ts';

export type Rights = 'service' | 'ci' | 'scope_read' | 'repo_read' | 'repo_write' | 'repo_admin' | 'owner_admin';

const ACCEPTS: Record<Rights, readonly CredentialKind[]> = {
  service: ['service'],
  ci: ['service', 'ci_key'],
  // Reading scope reports back: whoever may send them, and whoever may read the repository.
  scope_read: ['service', 'ci_key', 'admin_key', 'hosting'],
  repo_read: ['service', 'admin_key', 'hosting'],
  // Acting on the merge queue (enter, dequeue, pause, freezes): DESIGN.md §3.
  repo_write: ['service', 'admin_key', 'hosting'],
  repo_admin: ['service', 'admin_key', 'hosting'],
  owner_admin: ['service', 'admin_key', 'hosting'],
};

declare module 'fastify' {
  interface FastifyRequest {
    principal: Principal | null;
  }
}

interface OwnerPath {
  owner?: string;
  repository?: string;
}

async function hostingAllows(deps: CredentialDeps, principal: Extract<Principal, { kind: 'hosting' }>, rights: Rights, path: OwnerPath): Promise<boolean> {
  const owner = path.owner ?? '';
  if (rights === 'owner_admin') {
    if (owner.toLowerCase() === principal.user.login.toLowerCase()) return true;
    return deps.hosting.isOrganisationAdmin(principal.token, owner, principal.user.login);
  }
  const permissions = await deps.hosting.repositoryPermissions(principal.token, owner, path.repository ?? '');
  if (rights === 'repo_admin') return permissions?.admin === true;
  if (rights === 'repo_write') return permissions?.push === true;
  return permissions?.pull === true;
}

async function allows(deps: CredentialDeps, principal: Principal, rights: Rights, path: OwnerPath): Promise<boolean> {
  switch (principal.kind) {
    case 'service':
      return true;
    case 'admin_key':
    case 'ci_key':
      return path.owner !== undefined && principal.key.owner.toLowerCase() === path.owner.toLowerCase();
    case 'hosting':
      return hostingAllows(deps, principal, rights, path);
  }
}

/** The names rights are judged on, as the route schemas accept them (other path values are not read). */
const namesValid = compileParameterValidator(Type.Object({ owner: Type.Optional(Owner), repository: Type.Optional(RepositoryName) }));

const rightsChecked = new WeakSet<FastifyRequest>();

export function guard(deps: CredentialDeps, rights: Rights) {
  const checkRights = async (request: FastifyRequest) => {
    const principal = request.principal;
    if (!principal) throw new ApiError('missing_credential');
    if (!(await allows(deps, principal, rights, request.params as OwnerPath))) throw new ApiError('insufficient_rights');
    rightsChecked.add(request);
  };
  return {
    onRequest: async (request: FastifyRequest, _reply: FastifyReply) => {
      request.principal = await identify(bearerToken(request.headers.authorization), deps, ACCEPTS[rights], request.ip);
    },
    preParsing: async (request: FastifyRequest, _reply: FastifyReply) => {
      if (namesValid(request.params)) await checkRights(request);
    },
    preHandler: async (request: FastifyRequest, _reply: FastifyReply) => {
      if (!rightsChecked.has(request)) await checkRights(request);
    },
  };
}
