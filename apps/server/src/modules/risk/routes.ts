// The risk desk's back office (issue 29), for the admin role only: the rule sets, the disposable
// domains, the blocklist, a backtest of rules before they are put in force, and the monthly figure of
// disputes and fraud warnings. Every change is in the audit log.
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  backtestRequestSchema,
  backtestSchema,
  blocklistCreateSchema,
  blocklistEntrySchema,
  blocklistIdParamsSchema,
  blocklistSchema,
  disposableDomainsSchema,
  disposableDomainsUpdateSchema,
  errorSchema,
  riskFiguresQuerySchema,
  riskFiguresSchema,
  riskRuleSetSchema,
  riskRulesUpdateSchema,
} from '@keystore/contract';
import type { AuditActor } from '../../platform/audit.ts';
import type { RiskService } from './service.ts';

const bearer = [{ bearerAuth: [] }];
const tags = ['admin'];
const denied = { 401: errorSchema, 403: errorSchema };

/** This month, UTC, as YYYY-MM. */
const thisMonth = () => new Date().toISOString().slice(0, 7);

export const riskRoutes: FastifyPluginAsyncZod<{ risk: RiskService; actorOf: (request: FastifyRequest) => Promise<AuditActor> }> = async (app, { risk, actorOf }) => {
  app.get(
    '/api/admin/risk/rules',
    {
      onRequest: app.requireAdmin,
      schema: { operationId: 'adminRiskRules', tags, summary: 'The risk rule set in force: the highest version (1: the defaults)', security: bearer, response: { 200: riskRuleSetSchema, ...denied } },
    },
    async () => risk.rules.current(),
  );

  app.put(
    '/api/admin/risk/rules',
    {
      onRequest: app.requireAdmin,
      schema: {
        operationId: 'adminReplaceRiskRules',
        tags,
        summary: 'Puts a rule set in force as the next version (orders assessed from now on use it); the previous versions stay',
        security: bearer,
        body: riskRulesUpdateSchema,
        response: { 200: riskRuleSetSchema, 400: errorSchema, 409: errorSchema, ...denied },
      },
    },
    async (request) => risk.rules.replace(request.body.rules, await actorOf(request)),
  );

  app.get(
    '/api/admin/risk/disposable-domains',
    {
      onRequest: app.requireAdmin,
      schema: {
        operationId: 'adminDisposableDomains',
        tags,
        summary: "The disposable e-mail domains: how many the store bundles, and the owner's additions",
        security: bearer,
        response: { 200: disposableDomainsSchema, ...denied },
      },
    },
    async () => risk.disposable.list(),
  );

  app.put(
    '/api/admin/risk/disposable-domains',
    {
      onRequest: app.requireAdmin,
      schema: {
        operationId: 'adminReplaceDisposableDomains',
        tags,
        summary: "Sets the owner's additions to the disposable e-mail domains (all of them; each covers its subdomains)",
        security: bearer,
        body: disposableDomainsUpdateSchema,
        response: { 200: disposableDomainsSchema, 400: errorSchema, ...denied },
      },
    },
    async (request) => risk.disposable.replace(request.body.domains, await actorOf(request)),
  );

  app.get(
    '/api/admin/risk/blocklist',
    {
      onRequest: app.requireAdmin,
      schema: { operationId: 'adminBlocklist', tags, summary: 'The blocklist, newest first, each value as a masked hint', security: bearer, response: { 200: blocklistSchema, ...denied } },
    },
    async () => risk.blocklist.list(),
  );

  app.post(
    '/api/admin/risk/blocklist',
    {
      onRequest: app.requireAdmin,
      schema: {
        operationId: 'adminBlock',
        tags,
        summary: "Blocks an e-mail, card fingerprint, address or browser: its orders are refused. Only a keyed hash of the value is stored; 409 when it is blocked already",
        security: bearer,
        body: blocklistCreateSchema,
        response: { 201: blocklistEntrySchema, 400: errorSchema, 409: errorSchema, ...denied },
      },
    },
    async (request, reply) => {
      const { kind, value, note } = request.body;
      return reply.code(201).send(await risk.blocklist.add(kind, value, note, await actorOf(request)));
    },
  );

  app.delete(
    '/api/admin/risk/blocklist/:id',
    {
      onRequest: app.requireAdmin,
      schema: {
        operationId: 'adminUnblock',
        tags,
        summary: 'Removes an entry from the blocklist',
        security: bearer,
        params: blocklistIdParamsSchema,
        response: { 204: z.null(), 404: errorSchema, ...denied },
      },
    },
    async (request, reply) => {
      await risk.blocklist.remove(request.params.id, await actorOf(request));
      return reply.code(204).send(null);
    },
  );

  app.post(
    '/api/admin/risk/backtest',
    {
      onRequest: app.requireAdmin,
      schema: {
        operationId: 'adminRiskBacktest',
        tags,
        summary: 'Replays a rule set over the values frozen with the assessments made in [from, to): the orders it would hold, the frauds it would catch, the sales it would delay, the decisions it would change',
        security: bearer,
        body: backtestRequestSchema,
        response: { 200: backtestSchema, 400: errorSchema, ...denied },
      },
    },
    async (request) => risk.backtest(request.body.rules, request.body.from, request.body.to),
  );

  app.get(
    '/api/admin/risk/figures',
    {
      onRequest: app.requireAdmin,
      schema: {
        operationId: 'adminRiskFigures',
        tags,
        summary: "A month's disputes and fraud warnings over its paid orders, beside the card networks' thresholds (alarm from 0.5 %)",
        security: bearer,
        querystring: riskFiguresQuerySchema,
        response: { 200: riskFiguresSchema, 400: errorSchema, ...denied },
      },
    },
    async (request) => risk.figures(request.query.month ?? thisMonth()),
  );
};
