import { Injectable, type PipeTransform } from '@nestjs/common';
import { ResourceNotFoundException } from './exceptions';

const MAX_ID = 2_147_483_647;

/** A resource id from the path. Anything that cannot be an id names no resource: a 404, like an unknown id. */
@Injectable()
export class IdPipe implements PipeTransform<string, number> {
  transform(value: string): number {
    if (!/^[1-9]\d{0,9}$/.test(value) || Number(value) > MAX_ID) throw new ResourceNotFoundException();
    return Number(value);
  }
}
