import { returnedRows } from './returned-rows';

describe('returnedRows', () => {
  it('takes the rows of an UPDATE or DELETE as TypeORM answers them, [rows, count]', async () => {
    await expect(returnedRows(Promise.resolve([[{ id: 1 }], 1]))).resolves.toEqual([{ id: 1 }]);
    await expect(returnedRows(Promise.resolve([[], 0]))).resolves.toEqual([]);
  });

  it('takes any other answer as the rows themselves', async () => {
    await expect(returnedRows(Promise.resolve([{ id: 1 }, { id: 2 }]))).resolves.toEqual([
      { id: 1 },
      { id: 2 },
    ]);
    await expect(returnedRows(Promise.resolve([]))).resolves.toEqual([]);
  });
});
