import { HttpStatus } from '@nestjs/common';

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

/** The contract's message of each error status whose message is fixed (the filter's answers, the document's bodies). */
export const ERROR_MESSAGES: Partial<Record<number, string>> = {
  [HttpStatus.BAD_REQUEST]: 'Bad request.',
  [HttpStatus.UNAUTHORIZED]: 'Unauthenticated.',
  [HttpStatus.NOT_FOUND]: 'Resource not found.',
  [HttpStatus.METHOD_NOT_ALLOWED]: 'Method not allowed.',
  [HttpStatus.PAYLOAD_TOO_LARGE]: 'Payload too large.',
  [HttpStatus.UNSUPPORTED_MEDIA_TYPE]: 'Unsupported media type.',
  [HttpStatus.TOO_MANY_REQUESTS]: 'Too Many Attempts.',
  [HttpStatus.SERVICE_UNAVAILABLE]: 'Service unavailable.',
  [HttpStatus.INTERNAL_SERVER_ERROR]: 'Server error.',
};
