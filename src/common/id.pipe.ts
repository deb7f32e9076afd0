import { Injectable, type PipeTransform } from '@nestjs/common';
import { ResourceNotFoundException } from './exceptions';
import { MAX_ID } from './validation';

/** A resource id from the path. Anything that cannot be an id names no resource: a 404, like an unknown id. */
@Injectable()
export class IdPipe implements PipeTransform<unknown, number> {
  transform(value: unknown): number {
    // A string of plain decimal digits within the column's range: no sign, no leading zero, no other base.
    if (typeof value !== 'string' || !/^[1-9]\d{0,9}$/.test(value) || Number(value) > MAX_ID) {
      throw new ResourceNotFoundException();
    }
    return Number(value);
  }
}
