/** The response bodies of contract section 2, built here and nowhere else. */

export interface DataEnvelope<T> {
  data: T;
  status: 200;
}

export interface DeletedEnvelope {
  id: number;
  object: string;
  deleted: true;
  status: 200;
}

export interface ErrorEnvelope {
  message: string | Record<string, string[]>;
  status: number;
}

/** Show, update and create: the body's `status` stays 200 even on a 201, as in phpShort. */
export function dataEnvelope<T>(data: T): DataEnvelope<T> {
  return { data, status: 200 };
}

export function deletedEnvelope(id: number, object: string): DeletedEnvelope {
  return { id, object, deleted: true, status: 200 };
}

export function errorEnvelope(status: number, message: ErrorEnvelope['message']): ErrorEnvelope {
  return { message, status };
}
