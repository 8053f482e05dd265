import type {
  Client,
  ClientPathsWithMethod,
  FetchResponse,
  MaybeOptionalInit,
  ParseAs,
} from 'openapi-fetch'
import type { paths } from './api-schema'

/**
 * The web's typed contract with the api (issue 41 item 4, decision 029): openapi-fetch's
 * client over the generated `paths` (`api-schema.ts`), with one check added. openapi-fetch
 * lets a body key the route does not take through once the required keys are there
 * (openapi-typescript issue 1769), so a misspelt optional field would compile; here such a key
 * is typed `never` and fails to typecheck (`api-client.typecheck.ts`).
 */

/** The methods the web calls. */
type ApiMethod = 'get' | 'put' | 'post' | 'delete' | 'patch'

/** The api's contract: every path, its methods, parameters, bodies and answers (generated). */
export type ApiPaths = paths

/** The contract's paths that answer method `M` (`/projects/{id}`, as the document writes them). */
export type ApiPath<M extends ApiMethod> = ClientPathsWithMethod<Client<paths>, M>

/** The paths of the contract that answer a GET: the first element of every query key. */
export type ApiGetPath = ApiPath<'get'>

/** The keys of every member of a union (`keyof` alone gives only the common ones). */
type KeysOfUnion<T> = T extends unknown ? keyof T : never

/** The JSON body an operation takes; never for none, or a file. */
type JsonBodyOf<Operation> = Operation extends {
  requestBody?: { content: { 'application/json': infer Body } }
}
  ? Body
  : never

/** `body` keys of `Init` that `Operation`'s JSON body does not have, each typed `never`. */
type NoExtraBodyKeys<Init, Operation> = [JsonBodyOf<Operation>] extends [never]
  ? unknown
  : Init extends { body?: infer Body }
    ? { body?: { [K in Exclude<KeysOfUnion<Body>, KeysOfUnion<JsonBodyOf<Operation>>>]: never } }
    : unknown

/** The keys `T` requires. */
type RequiredKeys<T> = { [K in keyof T]-?: object extends Pick<T, K> ? never : K }[keyof T]

/** What a call's init may be: openapi-fetch's, with {@link NoExtraBodyKeys}, and `parseAs`. */
type StrictInit<Init, Operation, As extends ParseAs> = Init &
  NoExtraBodyKeys<Init, Operation> & { parseAs?: As } & { [key: string]: unknown }

/**
 * One method of the client, as openapi-fetch types it (the init is optional when nothing in it
 * is required), with {@link NoExtraBodyKeys}. `data` follows `parseAs` through a parameter of
 * its own: openapi-fetch reads it from the whole init, which falls back to its constraint (and
 * `data` to the JSON type) when a body holds a literal such as `format: 'otio'`.
 */
type ApiCall<M extends ApiMethod> = <
  Path extends ApiPath<M>,
  Init extends MaybeOptionalInit<paths[Path], M>,
  As extends ParseAs = 'json',
>(
  url: Path,
  ...init: RequiredKeys<Init> extends never
    ? [StrictInit<Init, paths[Path][M], As>?]
    : [StrictInit<Init, paths[Path][M], As>]
) => Promise<
  FetchResponse<paths[Path][M] & Record<string, unknown>, { parseAs: As }, `${string}/${string}`>
>

/**
 * A client of the api typed by its contract: a path, method, parameter or body the document
 * does not have fails to typecheck.
 */
export interface ApiClient {
  GET: ApiCall<'get'>
  PUT: ApiCall<'put'>
  POST: ApiCall<'post'>
  DELETE: ApiCall<'delete'>
  PATCH: ApiCall<'patch'>
}
